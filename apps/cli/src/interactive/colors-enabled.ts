/**
 * Whether the interactive mode colors its output: `FORCE_COLOR` set to anything but "", "0" or
 * "false" turns colors on (also when the output is not a terminal, and over `NO_COLOR`: the more
 * explicit request wins); `FORCE_COLOR=0` or `false` turns them off; otherwise colors are on for a
 * terminal unless `NO_COLOR` is set to a non-empty value (https://no-color.org). Pure.
 */
export function colorsEnabled(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force.toLowerCase() !== "false";
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return isTTY;
}
