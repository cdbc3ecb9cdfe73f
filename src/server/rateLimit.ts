import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { hasRole, type Principal } from '../domain/access';
import { ErrorCode, RateLimitedError, StandingsError } from '../errors';
import type { RateLimitScope } from '../store/keys';
import type { RateLimitStore } from '../store/rateLimitStore';
import type { ClientViewCharges } from '../domain/combined';
import { setBounded } from './boundedMap';
import type { RateLimits } from './config';

/** Clients remembered as refused view builds (see chargeViews): past it, the oldest are asked of Redis again. */
const MAX_REFUSED_CLIENTS = 10_000;

/**
 * Requests per window for each API key and each client address, counted in Redis so that the
 * limits hold across every instance. Writer and admin keys (game backends and operators, often
 * many behind one address) are limited per key only; anonymous and reader requests per address
 * only: one reader key is typically shared by every copy of a game client, so a count per reader
 * key would let any one client use up every other's requests.
 */
export class RateLimiter {
  /** Clients whose allowance for view builds is used up, until their window ends (see chargeViews). */
  private readonly viewsRefused = new Map<string, { until: number; details: Record<string, unknown> }>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly limits: RateLimits,
    /** Reverse proxies whose X-Forwarded-For is believed (see clientAddress). */
    private readonly trustedHops: number,
  ) {}

  /**
   * Counts one request; RATE_LIMITED when its key or address has used up the current window.
   * Undefined when no limit applies to it (a writer's request with no per-key limit), so that
   * such a request waits for nothing here.
   */
  check(principal: Principal, request: IncomingMessage): Promise<void> | undefined {
    return this.settle(this.countKey(principal), hasRole(principal, 'writer') ? undefined : this.countAddress(request));
  }

  /** Counts a WebSocket connection's key when the connection is admitted: its address was counted at its upgrade (checkAddress). */
  checkKey(principal: Principal): Promise<void> | undefined {
    return this.settle(this.countKey(principal));
  }

  /** Counts a request against its address alone: a WebSocket upgrade, before any key is known. */
  checkAddress(request: IncomingMessage): Promise<void> | undefined {
    return this.settle(this.countAddress(request));
  }

  private countKey(principal: Principal): Promise<void> | undefined {
    const { perKey, windowMs } = this.limits;
    return hasRole(principal, 'writer') && principal.keyId !== null && perKey > 0 ? this.count('key', principal.keyId, perKey, windowMs) : undefined;
  }

  private countAddress(request: IncomingMessage): Promise<void> | undefined {
    const { perIp, windowMs } = this.limits;
    return perIp > 0 ? this.count('ip', clientAddress(request, this.trustedHops), perIp, windowMs) : undefined;
  }

  /** Both counts as one; a lost Redis refuses nothing. */
  private settle(first: Promise<void> | undefined, second?: Promise<void>): Promise<void> | undefined {
    const counted = first && second ? Promise.all([first, second]) : first ?? second;
    if (counted === undefined) return undefined;
    return counted.then(() => undefined, ignoreOutage);
  }

  /**
   * Counts the entries a combined-view build this request started reads (RATE_LIMIT_VIEW_ENTRIES):
   * per key for writer and admin keys, per client address for readers and anonymous requests,
   * as requests are. RATE_LIMITED (details.limit `view-key` or `view-ip`) once the window's
   * allowance is used up; the build that went past it is refused, and nothing is read.
   */
  chargeViews(principal: Principal, request: IncomingMessage): ClientViewCharges | undefined {
    const { viewEntries = 0, windowMs } = this.limits;
    if (viewEntries === 0) return undefined;
    const [by, id] = countedAs(principal, request, this.trustedHops);
    const scope = by === 'key' ? 'view-key' : 'view-ip';
    const client = `${scope} ${id}`;
    return {
      // A client refused stays refused until its window ends: refusing it again costs no Redis call.
      check: () => {
        const refused = this.viewsRefused.get(client);
        if (refused === undefined) return;
        const inMs = refused.until - Date.now();
        if (inMs > 0) throw new RateLimitedError(Math.ceil(inMs / 1000), refused.details);
        this.viewsRefused.delete(client);
      },
      charge: (entries) => this.count(scope, id, viewEntries, windowMs, entries).catch((err: unknown) => {
        if (err instanceof RateLimitedError) {
          setBounded(this.viewsRefused, client, { until: Date.now() + err.retryAfterSeconds * 1000, details: err.details }, MAX_REFUSED_CLIENTS);
        }
        ignoreOutage(err);
      }),
    };
  }

  private async count(scope: RateLimitScope, id: string, limit: number, windowMs: number, amount = 1): Promise<void> {
    const { count, resetInMs } = await this.store.hit(scope, id, windowMs, amount);
    if (count > limit) {
      const allowance = amount === 1 ? { requestsPerWindow: limit } : { entriesPerWindow: limit };
      throw new RateLimitedError(Math.max(1, Math.ceil(resetInMs / 1000)), { limit: scope, ...allowance, windowMs });
    }
  }
}

/**
 * Without Redis there is nothing to count with, and the request fails with UNAVAILABLE at its
 * first read anyway; refusing it here would only change the error it gets.
 */
function ignoreOutage(err: unknown): void {
  if (!(err instanceof StandingsError && err.code === ErrorCode.UNAVAILABLE)) throw err;
}

/**
 * Whom a limit counted in one process holds a connection's use to, by the rule the rate limits
 * follow: a writer's or admin's key (backends, often many behind one address), else the client
 * address (one reader key is shared by every copy of a game client).
 */
export function clientOf(principal: Principal, request: IncomingMessage, trustedHops: number): string {
  return countedAs(principal, request, trustedHops).join(' ');
}

/** What a per-client limit counts a request by (see clientOf): its key's id, or its client address. */
function countedAs(principal: Principal, request: IncomingMessage, trustedHops: number): ['key' | 'ip', string] {
  return hasRole(principal, 'writer') && principal.keyId !== null ? ['key', principal.keyId] : ['ip', clientAddress(request, trustedHops)];
}

/**
 * The address of whoever sent a request (HTTP or a WebSocket upgrade). Behind `trustedHops`
 * reverse proxies it is taken from X-Forwarded-For, counting from the right: the entries further
 * left were written by the client itself and prove nothing. An entry that is not an address (a
 * proxy that is not there after all) counts as the peer's, so no client can name its own counter.
 */
export function clientAddress(request: IncomingMessage, trustedHops: number): string {
  const peer = request.socket.remoteAddress ?? 'unknown';
  if (trustedHops === 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
  const chain = [...forwarded, peer];
  const client = chain[Math.max(0, chain.length - 1 - trustedHops)];
  return isIP(client) ? client : peer;
}
