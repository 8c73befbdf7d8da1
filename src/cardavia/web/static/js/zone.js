// The reader's time zone, for the dates and times the server writes on a page
// (docs/languages/README.md, "Dates and times"): the browser's own zone, as the tz database
// names it, kept in the cardavia_tz cookie that every page's request carries; settings.js
// keeps it with the player's settings too (timeZone), so that a page read in another browser
// before its first cookie still says the player's time. The server takes only a name of the
// tz database: anything else is ignored there.

const COOKIE = "cardavia_tz";
// The shape the server accepts (cardavia.words.times.ZONE_NAME): the settings it refuses
// would take the others with them.
const NAME = /^(UTC|[A-Z][A-Za-z0-9_+-]{0,30}(\/[A-Za-z0-9_+-]{1,30}){1,2})$/;

/** The browser's time zone (`Europe/Paris`), or "" when it names none a cookie can hold. */
export function browserZone() {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    zone = "";
  }
  return NAME.test(zone) ? zone : "";
}

const zone = browserZone();
if (zone && !document.cookie.split("; ").includes(`${COOKIE}=${zone}`)) {
  document.cookie = `${COOKIE}=${zone}; path=/; max-age=31536000; samesite=lax`;
}
