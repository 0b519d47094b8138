// The times the APIs take: what JavaScript and PostgreSQL both hold and write as an ordinary ISO
// date. A time past year 9999 (epoch milliseconds such as 99999999999999999, or a look-back of
// millions of years) would otherwise reach the database and fail there as a 500.

/** The end of year 9999, UTC. */
export const LAST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Whether `t` (ms since the epoch) is between 1970 and the end of 9999. */
export const ordinaryTime = (t: number): boolean => !Number.isNaN(t) && t >= 0 && t <= LAST_TIME;
