const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A one-line spinner drawn with carriage returns; `stop` erases it. */
export interface Spinner {
  /** Replaces the label shown next to the spinner. */
  update(label: string): void;
  /** Stops and erases the spinner line. Idempotent. */
  stop(): void;
}

/**
 * Starts a spinner on `write` (a TTY stream's write). The first frame is drawn at once, then every
 * 80 ms until `stop`. The timer is unref'd so a forgotten spinner never keeps the process alive.
 */
export function startSpinner(write: (chunk: string) => unknown, label: string): Spinner {
  let frame = 0;
  let current = label;
  let running = true;
  const draw = () => write(`\r\u001b[2K${FRAMES[frame++ % FRAMES.length]} ${current}`);
  draw();
  const timer = setInterval(draw, 80);
  timer.unref();
  return {
    update(next) {
      current = next;
      if (running) draw();
    },
    stop() {
      if (!running) return;
      running = false;
      clearInterval(timer);
      write("\r\u001b[2K");
    },
  };
}
