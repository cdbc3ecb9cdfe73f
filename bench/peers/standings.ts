/** Contender: Standings as it ships (Express 5 + Apollo Server 5, configured as in production). */
import { hostPeer } from './host';
import { startStandings } from './standingsServer';

hostPeer((redis) => startStandings(redis));
