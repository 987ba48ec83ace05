// A short two-note chime for "your turn", made with the Web Audio API (no sound files).
let context = null;

export function beep() {
  try {
    context = context || new (window.AudioContext || window.webkitAudioContext)();
    const now = context.currentTime;
    [[880, 0], [1318.5, 0.12]].forEach(([freq, at]) => {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.18, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.25);
      osc.connect(gain).connect(context.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.3);
    });
  } catch {
    // no audio (autoplay policy or no device): the title still changes
  }
}
