import { InvalidArgumentError } from "commander";

const ON = ["on", "yes", "true", "1"];
const OFF = ["off", "no", "false", "0"];

/**
 * A commander value parser for an on/off setting (on/off, yes/no, true/false, 1/0, any case). Flags that
 * have an environment variable take a value this way: commander alone counts any value, "0" too, as on.
 * @example new Option("--access-log <on|off>").env("FEEDBASE_ACCESS_LOG").argParser(onOff("--access-log"))
 */
export function onOff(name: string): (value: string) => boolean {
  return (value) => {
    const word = value.toLowerCase();
    if (ON.includes(word)) return true;
    if (OFF.includes(word)) return false;
    throw new InvalidArgumentError(`${name} must be on or off (or yes/no, true/false, 1/0)`);
  };
}
