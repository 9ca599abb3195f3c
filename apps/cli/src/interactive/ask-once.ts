import readline from "node:readline";

/** Asks one question on the terminal (before the interactive app starts) and resolves with the trimmed answer. */
export function askOnce(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  question: string,
): Promise<string> {
  const rl = readline.createInterface({
    input,
    output,
    terminal: (input as { isTTY?: boolean }).isTTY === true,
  });
  return new Promise((resolve) => {
    let answered = false;
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer.trim());
    });
    rl.on("close", () => {
      if (!answered) resolve("");
    });
  });
}
