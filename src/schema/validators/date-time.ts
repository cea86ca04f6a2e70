/** hh:mm or hh:mm:ss on a 24-hour clock; 24:00 is not a time of day even if a picker offers it. */
export function isTime(text: string): boolean {
  return /^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$/.test(text);
}

/** A real calendar date written DD-MM-YYYY, so 31-02-2024 and 29-02-2023 are refused. */
export function isDateDmy(text: string): boolean {
  const match = /^([0-9]{2})-([0-9]{2})-([0-9]{4})$/.exec(text);
  if (!match) return false;
  const [day, month, year] = match.slice(1).map(Number);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(month, year);
}

function daysInMonth(month: number, year: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
