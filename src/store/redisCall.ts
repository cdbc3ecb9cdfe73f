import { fromScriptError, StandingsError, unavailable } from '../errors';

/**
 * Errors that mean Redis could not be reached or did not answer in time, as ioredis reports
 * them with enableOfflineQueue off and bounded retries, for one server or a Cluster. Anything
 * else (a bug, a missing file) stays an internal error, so it is logged rather than blamed on Redis.
 */
const UNREACHABLE =
  /Connection is closed|Stream isn't writeable|Command timed out|Reached the max retries|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|LOADING|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|Cluster isn't ready|Too many Cluster redirections|No sharded subscriber for slot/;

/** Runs one Redis operation: script error replies become StandingsErrors, outages UNAVAILABLE. */
export async function redisCall<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    const translated = fromScriptError(err);
    if (translated instanceof StandingsError) throw translated;
    if (err instanceof Error && (err.name === 'MaxRetriesPerRequestError' || UNREACHABLE.test(err.message))) {
      const outage = unavailable('Redis is unavailable');
      outage.cause = err;
      throw outage;
    }
    throw err;
  }
}
