const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A one-line spinner drawn with carriage returns; `stop` erases it. */
export interface Spinner {
  /** Replaces the label shown next to the spinner. */
  update(label: string): void;
  /** Stops and erases the spinner line. Idempotent. */
  stop(): void;
}

/**
 * Starts a spinner on `write` (a TTY stream's write): `⠋ label 12s`, the time since it started in
 * whole seconds (shown from 1 s on). The first frame is drawn after `delayMs` (default at once: a
 * short wait shows nothing and leaves nothing to erase), then every 80 ms until `stop`. The timers
 * are unref'd so a forgotten spinner never keeps the process alive. `now` is for tests.
 */
export function startSpinner(
  write: (chunk: string) => unknown,
  label: string,
  now: () => number = Date.now,
  delayMs = 0,
): Spinner {
  let frame = 0;
  let current = label;
  let running = true;
  let drawn = false;
  const started = now();
  const draw = () => {
    const seconds = Math.floor((now() - started) / 1000);
    drawn = true;
    write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${current}${seconds >= 1 ? ` ${seconds}s` : ""}`);
  };
  let timer: NodeJS.Timeout | undefined;
  const begin = () => {
    if (!running) return;
    draw();
    timer = setInterval(draw, 80);
    timer.unref();
  };
  const delay = delayMs > 0 ? setTimeout(begin, delayMs) : undefined;
  delay?.unref();
  if (delay === undefined) begin();
  return {
    update(next) {
      current = next;
      if (running && drawn) draw();
    },
    stop() {
      if (!running) return;
      running = false;
      clearTimeout(delay);
      clearInterval(timer);
      if (drawn) write("\r\u001b[2K");
    },
  };
}
