/** Contender: Fastify + Mercurius + graphql-jit as it would be deployed, without Standings' read cache. */
import { hostPeer } from './host';
import { startMercurius } from './mercuriusServer';

hostPeer((redis) => startMercurius(redis, false));
