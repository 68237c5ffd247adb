/**
 * Numbers, money and percentages as the browser's locale writes them ("12,345" in English, "12.345" in Brazilian
 * Portuguese): every count the console shows goes through `formatCount`. Dates and times are written in clock.ts,
 * in the same locales.
 */
export const locales: readonly string[] =
  navigator.languages.length > 0 ? navigator.languages : [navigator.language];

const counts = new Intl.NumberFormat(locales);

/** A count ("12,345"). */
export const formatCount = (count: number): string => counts.format(count);

/** Cents in a currency ("R$15.00", "R$ 15,00"). */
export const formatMoney = (cents: number, currency: string): string =>
  new Intl.NumberFormat(locales, { style: 'currency', currency }).format(cents / 100);

/** Cents as an amount without its currency, to the cent ("10,000.00"). */
export const formatAmount = (cents: number): string =>
  new Intl.NumberFormat(locales, { minimumFractionDigits: 2 }).format(cents / 100);

/** A percentage given in hundredths ("90%" for 90). */
export const formatPercent = (percent: number): string =>
  new Intl.NumberFormat(locales, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
