"""The browser side of the wire check: in every page the tests open, the web client validates
each message it receives (``conn.js`` calls ``window.boardroomWireCheck``) against the JSON
Schema the server serves, with Ajv (vendored, test-only, loaded only by this init script). A
message off the schema is recorded in the page and reported on its console; ``CheckedBrowser``
collects both, and the web tests' conftest fails a test on any."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

AJV = (Path(__file__).parent / "vendor" / "ajv" / "ajv2020.min.js").read_text()
MARK = "wire violation: "

CHECKER = AJV + """
;(() => {
  if (!/^https?:$/.test(location.protocol)) return;
  const Ajv = window.ajv2020.default || window.ajv2020;
  const queue = [];
  let validators = null;
  window.boardroomWireViolations = [];
  const report = (text) => {
    window.boardroomWireViolations.push(text);
    console.error('""" + MARK + """' + text);
  };
  const run = (event, message) => {
    const check = validators[event];
    if (!check) { report(`the schema lists no message ${event}`); return; }
    if (!check(message)) {
      report(`${event}: ${JSON.stringify(check.errors.slice(0, 3))} in `
        + JSON.stringify(message).slice(0, 400));
    }
  };
  window.boardroomWireCheck = (event, message) => {
    if (validators) run(event, message); else queue.push([event, message]);
  };
  // Each discriminated union (the commands, the events: over a hundred types) becomes a
  // keyword that validates a message against its own type's schema, compiled the first time a
  // message of that type comes: compiling the whole schema at every page load cost seconds of
  // the page's main thread. What is checked is the same: a type the mapping lacks fails.
  const lazyUnions = (node) => {
    if (Array.isArray(node)) return node.map(lazyUnions);
    if (node === null || typeof node !== 'object') return node;
    if (node.discriminator && node.discriminator.mapping && node.oneOf) {
      return { boardroomUnion: node.discriminator };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, lazyUnions(value)]));
  };
  fetch('/api/protocol.schema.json').then((response) => response.json()).then((schema) => {
    const ajv = new Ajv({ strict: false }); // strict mode refuses the OpenAPI 'discriminator'
    ajv.addKeyword({
      keyword: 'boardroomUnion', schemaType: 'object', errors: true,
      validate: function union(spec, data) {
        const kind = data !== null && typeof data === 'object'
          ? data[spec.propertyName] : undefined;
        const ref = Object.hasOwn(spec.mapping, kind) ? spec.mapping[kind] : undefined;
        if (!ref) {
          union.errors = [{ keyword: 'boardroomUnion', params: { kind },
            message: `${spec.propertyName} ${JSON.stringify(kind)} is none of the union's` }];
          return false;
        }
        const check = ajv.getSchema(`wire${ref}`);
        union.errors = check(data) ? null : check.errors;
        return union.errors === null;
      },
    });
    ajv.addSchema(lazyUnions(schema), 'wire');
    const compiled = {};
    validators = new Proxy({}, { get: (_, name) => (name in schema.properties
      ? (compiled[name] ||= ajv.getSchema(`wire#/properties/${name}`)) : undefined) });
    for (const [event, message] of queue.splice(0)) run(event, message);
  }).catch((error) => report(`could not load the schema: ${error}`));
})();
"""


class CheckedBrowser:
    """A Chromium whose every context runs the checker, and that remembers what failed."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser
        self.contexts: list[BrowserContext] = []
        self.reported: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def _watch(self, context: BrowserContext) -> BrowserContext:
        context.add_init_script(CHECKER)
        context.on("console", self._console)
        self.contexts.append(context)
        return context

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and message.text.startswith(MARK):
            self.reported.append(message.text[len(MARK):])

    def new_context(self, **options: Any) -> BrowserContext:
        return self._watch(self._browser.new_context(**options))

    def new_page(self, **options: Any) -> Page:
        context = self.new_context(**options)
        return context.new_page()

    def violations(self) -> list[str]:
        """Everything any open page recorded, and what closed pages reported on their consoles;
        then forgotten, for the next test."""
        found = list(self.reported)
        for context in self.contexts:
            for page in context.pages:
                if page.is_closed():
                    continue
                try:
                    seen = page.evaluate("window.boardroomWireViolations || []")
                except Exception:  # a page closing or navigating now: its console told it
                    continue
                found += [text for text in seen if text not in found]
                page.evaluate("window.boardroomWireViolations = []") if seen else None
        self.reported.clear()
        self.contexts = [context for context in self.contexts if context.pages]
        return found
