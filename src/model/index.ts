/**
 * The shared vocabulary of Standings, at the bottom of the layers: what the store reads and
 * writes and the domain checks and plans. It imports nothing from the other layers.
 */
export * from './boards';
export * from './entries';
export * from './periods';
export * from './submissions';
export * from './views';
