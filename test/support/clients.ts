// The client libraries as docs/clients.md ("Using Standings from a client") sets them up, pointed at
// a test server: Apollo Client 4 (InMemoryCache, GraphQLWsLink) and urql 6 (graphcache), with
// no key functions of our own, so that the tests see what a client team gets.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition, relayStylePagination } from '@apollo/client/utilities';
import { Client as UrqlClient, fetchExchange, subscriptionExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { relayPagination } from '@urql/exchange-graphcache/extras';
import { type Client as WsClient, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { TEST_KEYS } from './harness';

const WAIT_MS = 5_000;

export interface ClientApp<C> {
  client: C;
  /** Closes the WebSocket (the HTTP side holds nothing open). */
  close(): Promise<void>;
}

function webSocketClient(graphqlUrl: string, key: string): WsClient {
  return createClient({
    url: graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
}

export function apolloClient(graphqlUrl: string, key = TEST_KEYS.admin): ClientApp<ApolloClient> {
  const ws = webSocketClient(graphqlUrl, key);
  const link = ApolloLink.split(
    ({ query }) => {
      const definition = getMainDefinition(query);
      return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
    },
    new GraphQLWsLink(ws),
    new HttpLink({ uri: graphqlUrl, headers: { Authorization: `Bearer ${key}` } }),
  );
  const cache = new InMemoryCache({
    typePolicies: { Leaderboard: { fields: { entries: relayStylePagination() } }, Period: { fields: { entries: relayStylePagination() } } },
  });
  return { client: new ApolloClient({ link, cache }), close: () => ws.dispose() as Promise<void> };
}

export function urqlClient(graphqlUrl: string, key = TEST_KEYS.admin): ClientApp<UrqlClient> {
  const ws = webSocketClient(graphqlUrl, key);
  const client = new UrqlClient({
    url: graphqlUrl,
    fetchOptions: { headers: { Authorization: `Bearer ${key}` } },
    exchanges: [
      cacheExchange({ resolvers: { Leaderboard: { entries: relayPagination() }, Period: { entries: relayPagination() } } }),
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
        }),
      }),
      fetchExchange,
    ],
  });
  return { client, close: () => ws.dispose() as Promise<void> };
}

/**
 * What a stream (a watched query, a subscription) has delivered so far; `until` waits for a value
 * that matches instead of sleeping, and fails after a bounded wait with what did arrive.
 */
export class Recorder<T> {
  readonly values: T[] = [];
  private readonly waiting = new Set<() => void>();

  readonly push = (value: T): void => {
    this.values.push(value);
    for (const wake of this.waiting) wake();
  };

  until(matches: (value: T) => boolean): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.values.find(matches);
        if (found === undefined) return false;
        this.waiting.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiting.delete(check);
        reject(new Error(`no matching value within ${WAIT_MS} ms; got ${JSON.stringify(this.values, null, 2)}`));
      }, WAIT_MS);
      if (!check()) this.waiting.add(check);
    });
  }
}
