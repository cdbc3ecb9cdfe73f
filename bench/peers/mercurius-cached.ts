/** Contender: Fastify + Mercurius + graphql-jit over the same domain object as Standings, read cache included. */
import { hostPeer } from './host';
import { startMercurius } from './mercuriusServer';

hostPeer((redis) => startMercurius(redis, true));
