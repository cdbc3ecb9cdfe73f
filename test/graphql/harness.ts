// An in-process Standings server on a free port, spoken to over real HTTP with fetch.
import type Redis from 'ioredis';
import { createStandingsServer, GRAPHQL_PATH, type StandingsServer } from '../../src/server/app';
import type { NodeEnv } from '../../src/server/config';
import type { Logger } from '../../src/server/logger';
import { createRedisClient, waitUntilReady } from '../../src/server/redis';
import { testRedisUrl } from '../support/redis';

export interface GraphQLError {
  message: string;
  path?: (string | number)[];
  extensions: { code: string; details?: Record<string, unknown> };
}

export interface GraphQLResponse {
  // Tests read arbitrary shapes out of responses; their assertions are what check them.
  data?: any;
  errors?: GraphQLError[];
}

/** Keeps what the server logged, so tests can assert on it and the test output stays quiet. */
export class MemoryLogger implements Logger {
  readonly lines: { level: 'info' | 'warn' | 'error'; message: string }[] = [];
  info(message: string) {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string) {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string) {
    this.lines.push({ level: 'error', message });
  }
}

export class TestServer {
  private constructor(
    readonly baseUrl: string,
    readonly redis: Redis,
    readonly server: StandingsServer,
    readonly logger: MemoryLogger,
  ) {}

  /** `waitForRedis: false` starts without the start-up PING, for a Redis that is not there. */
  static async start(
    redisUrl = testRedisUrl(),
    { waitForRedis = true, nodeEnv = 'test' as NodeEnv } = {},
  ): Promise<TestServer> {
    const logger = new MemoryLogger();
    const redis = createRedisClient(redisUrl, logger);
    if (waitForRedis) await waitUntilReady(redis, redisUrl, 10_000);
    const server = await createStandingsServer({ redis, nodeEnv, logger });
    const baseUrl = await server.listen(0, '127.0.0.1');
    return new TestServer(baseUrl, redis, server, logger);
  }

  get graphqlUrl(): string {
    return `${this.baseUrl}${GRAPHQL_PATH}`;
  }

  async post(query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: GraphQLResponse }> {
    const response = await fetch(this.graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as GraphQLResponse };
  }

  /** The response's data; fails the test with the errors when there are any. */
  async data(query: string, variables?: Record<string, unknown>): Promise<any> {
    const { body } = await this.post(query, variables);
    if (body.errors?.length) throw new Error(`unexpected GraphQL errors: ${JSON.stringify(body.errors, null, 2)}`);
    return body.data;
  }

  /** The response's errors; fails the test when there are none. */
  async errors(query: string, variables?: Record<string, unknown>): Promise<GraphQLError[]> {
    const { body } = await this.post(query, variables);
    if (!body.errors?.length) throw new Error(`expected GraphQL errors, got ${JSON.stringify(body)}`);
    return body.errors;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    this.redis.disconnect();
  }
}

export const CREATE_BOARD = /* GraphQL */ `
  mutation ($input: CreateLeaderboardInput!) {
    createLeaderboard(input: $input) { id title sortOrder updatePolicy size }
  }
`;

export const SUBMIT = /* GraphQL */ `
  mutation ($input: SubmitScoreInput!) {
    submitScore(input: $input) {
      entry { playerId score rank sharedRank percentile reachedAt }
      previousScore previousRank changed replayed
    }
  }
`;

export async function createBoard(
  server: TestServer,
  id: string,
  sortOrder: 'DESCENDING' | 'ASCENDING' = 'DESCENDING',
  updatePolicy: 'BEST' | 'LATEST' | 'INCREMENT' = 'BEST',
): Promise<void> {
  await server.data(CREATE_BOARD, { input: { id, sortOrder, updatePolicy } });
}

/** Submits the scores in order, one request each (live arrivals in that order). */
export async function submitAll(server: TestServer, boardId: string, scores: [playerId: string, score: number][]) {
  for (const [playerId, score] of scores) {
    await server.data(SUBMIT, { input: { leaderboardId: boardId, playerId, score } });
  }
}
