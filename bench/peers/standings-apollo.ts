/**
 * Contender: Standings as it ships but for the HTTP fast lane (src/server/fastLane.ts):
 * every request through Apollo Server. bench:transports' BENCH_FAST_LANE=compare sets it beside
 * Standings, for what the fast lane saves (issue 31: it earns its place or goes).
 */
import { hostPeer } from './host';
import { startStandings } from './standingsServer';

hostPeer((redis) => startStandings(redis, undefined, { fastLane: false }));
