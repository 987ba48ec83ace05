// In-page navigation: change the address and tell the router.
export function navigate(url) {
  history.pushState(null, '', url);
  window.dispatchEvent(new Event('boardroom:navigate'));
}
