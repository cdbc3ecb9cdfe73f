/** Contender: Standings as it ships (node:http and Apollo Server 5 with its fast lane, configured as in production). */
import { hostPeer } from './host';
import { startStandings } from './standingsServer';

hostPeer((redis) => startStandings(redis));
