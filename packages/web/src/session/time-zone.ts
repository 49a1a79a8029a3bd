import { TimeZoneName } from "@solserver/core";

/**
 * The browser's IANA time zone for `meta.timezone`, so "tomorrow at 9" means 9 where the user is;
 * undefined when the runtime reports none the server would accept (the server then reads UTC).
 */
export function browserTimeZone(): string | undefined {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return TimeZoneName.safeParse(zone).success ? zone : undefined;
  } catch {
    return undefined;
  }
}
