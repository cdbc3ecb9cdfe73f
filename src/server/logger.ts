/** What the server logs through: `console` in production, a recorder in tests. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
