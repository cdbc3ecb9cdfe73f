// The WebSocket server on a schema of its own (no Redis): what it does with an error nothing
// expected in a subscription's event, which the execution core logs once.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphQLBoolean, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ANONYMOUS_READER } from '../../../src/domain/access';
import type { Services } from '../../../src/graphql/context';
import { createExecutionCore } from '../../../src/graphql/execution/core';
import { attachWebSocket } from '../../../src/server/websocket';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLBoolean } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      broken: {
        type: GraphQLBoolean,
        subscribe: async function* () {
          yield {};
        },
        resolve: () => {
          throw new Error('kaput: a bug deep inside');
        },
      },
    },
  }),
});

it('masks an internal error in a subscription and logs it with its place and stack', async () => {
  const httpServer = http.createServer();
  const logged: string[] = [];
  const core = createExecutionCore({
    schema, services: {} as Services, production: true,
    logger: { error: (_fields, message) => logged.push(message) },
    observeOperation: () => undefined,
    countError: () => undefined,
  });
  attachWebSocket({
    httpServer, path: '/graphql', core, production: true,
    admitsUpgrade: () => true,
    authenticate: async () => ANONYMOUS_READER,
    admitOperation: async () => undefined,
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const client = createClient({
    url: `ws://127.0.0.1:${(httpServer.address() as AddressInfo).port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0,
  });
  try {
    const first = await new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: 'subscription { broken }' }, { next: resolve, error: reject, complete: () => undefined });
    });
    expect(first).toEqual({
      data: { broken: null },
      errors: [{ message: 'Internal server error', locations: [{ line: 1, column: 16 }], path: ['broken'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    expect(logged).toEqual([expect.stringMatching(/^Internal error at broken: Error: kaput: a bug deep inside\n\s+at /)]);
  } finally {
    await client.dispose();
    httpServer.closeAllConnections();
    await new Promise((resolve) => httpServer.close(resolve));
  }
});
