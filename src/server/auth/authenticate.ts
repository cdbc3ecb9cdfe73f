import type { IncomingMessage } from 'node:http';
import { ANONYMOUS_READER, type Principal } from '../../domain/access';
import { unauthenticated } from '../../errors';
import type { ApiKeys } from './apiKeys';

export interface AccessOptions {
  keys: ApiKeys;
  /** Requests without a key read as an anonymous reader; off: they are refused. */
  anonymousReads: boolean;
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Who a request is, from its credentials: the HTTP `Authorization` header, or the WebSocket's
 * connectionParams.authorization, both "Bearer <key>". No credentials is an anonymous reader when
 * the deployment allows it; a key that is malformed or unknown is always refused, never downgraded.
 */
export function authenticate(authorization: unknown, { keys, anonymousReads }: AccessOptions): Principal {
  if (authorization === undefined || authorization === null || authorization === '') {
    if (anonymousReads) return ANONYMOUS_READER;
    throw unauthenticated('An API key is required: send the header "Authorization: Bearer <key>"');
  }
  const match = typeof authorization === 'string' ? BEARER.exec(authorization) : null;
  if (!match) throw unauthenticated('Authorization must be "Bearer <key>"');
  const principal = keys.find(match[1]);
  if (!principal) throw unauthenticated('Unknown API key');
  return principal;
}

/**
 * A WebSocket's credentials, from wherever clients put them: graphql-ws' connectionParams
 * `authorization` (the name in any case), `connectionParams.headers.authorization` (as Apollo
 * Client and urql examples write it), or an Authorization header on the upgrade request (which
 * Node clients can send). The first one found counts.
 */
export function webSocketCredentials(params: Readonly<Record<string, unknown>> | undefined, request: IncomingMessage): unknown {
  return authorizationIn(params) ?? authorizationIn(params?.headers) ?? request.headers.authorization;
}

function authorizationIn(bag: unknown): unknown {
  if (typeof bag !== 'object' || bag === null) return undefined;
  for (const [name, value] of Object.entries(bag)) if (name.toLowerCase() === 'authorization') return value;
  return undefined;
}
