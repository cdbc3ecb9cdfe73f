import type { ApolloServerPlugin } from '@apollo/server';
import type { DocumentNode, OperationDefinitionNode } from 'graphql';
import { MAX_KEPT_QUERIES, MAX_KEPT_QUERY_LENGTH } from '../domain/limits';
import { setBounded } from './boundedMap';

/** Distinct Accept headers whose negotiated content type is kept; past that the oldest is dropped. */
const MAX_ACCEPT_HEADERS = 32;

interface KnownOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

/** A request for a known operation: what to execute, with what, and how to label the answer. */
export interface KnownRequest extends KnownOperation {
  variables: Record<string, unknown> | undefined;
  contentType: string;
}

interface RequestBody {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * The queries and mutations Apollo Server has already parsed, validated and resolved, by query
 * text and operation name, so that a request repeating one can be executed at once, without
 * Apollo's per-request pipeline (plugin hook chains, a sha256 of the query text, content
 * negotiation, and the promises these make: a fifth of a read request's CPU in bench:profile).
 *
 * Apollo stays the judge of every request: an operation becomes known only once Apollo accepted
 * it, an Accept header only once Apollo answered it (with the content type it negotiated), and
 * anything else (GET, batches, persisted queries, other body shapes) goes to Apollo as before.
 * A known operation whose result holds errors is handed back to Apollo to answer (see
 * CompiledExecution.presetOutcome), so errors, their codes and HTTP statuses and the plugins that watch
 * them are Apollo's alone. Successful results are written as Apollo writes them; test/server/
 * knownOperations.redis.test.ts checks that both lanes answer byte for byte alike.
 */
export class KnownOperations {
  /** By query text, then by the operation name the client sent (undefined: none). */
  private readonly operations = new Map<string, Map<string | undefined, KnownOperation>>();
  /** By Accept header ('' when there is none), the content type Apollo answered it with. */
  private readonly contentTypes = new Map<string, string>();
  private open = true;

  /** Learns the operations Apollo resolves. */
  readonly plugin: ApolloServerPlugin = {
    requestDidStart: async () => ({
      didResolveOperation: async ({ request, document, operation }) => {
        const { query } = request;
        if (query === undefined || query.length > MAX_KEPT_QUERY_LENGTH || !operation || operation.operation === 'subscription') return;
        let byName = this.operations.get(query);
        if (!byName) setBounded(this.operations, query, (byName = new Map()), MAX_KEPT_QUERIES);
        byName.set(request.operationName, { document, operation });
      },
    }),
  };

  /** Learns how Apollo answered a successful POST carrying this Accept header. */
  answered(accept: string | undefined, contentType: string): void {
    // The oldest goes, so that clients sending odd headers cannot keep the common ones out for good.
    setBounded(this.contentTypes, accept ?? '', contentType, MAX_ACCEPT_HEADERS);
  }

  /** The known operation a POST body asks for, or undefined when Apollo is to serve it. */
  match(body: unknown, accept: string | undefined): KnownRequest | undefined {
    const contentType = this.contentTypes.get(accept ?? '');
    if (!this.open || contentType === undefined || !isPlainRequest(body)) return undefined;
    const known = this.operations.get(body.query)?.get(body.operationName ?? undefined);
    // Written out: an object spread here cost 1-2 µs a request (measured), a tenth of the known lane's JavaScript.
    return known && { document: known.document, operation: known.operation, variables: body.variables ?? undefined, contentType };
  }

  /** From now on Apollo serves every request (the server is stopping). */
  close(): void {
    this.open = false;
    this.operations.clear();
  }
}

/**
 * A body Apollo would read as one operation with nothing else to act on: a query text, and an
 * operation name, variables and extensions that are absent, null or (extensions) empty. Apollo
 * refuses other types for these fields, and reads nothing else.
 */
function isPlainRequest(body: unknown): body is RequestBody {
  if (!isRecord(body) || typeof body.query !== 'string') return false;
  const { operationName, variables, extensions } = body;
  return (
    (operationName == null || typeof operationName === 'string') &&
    (variables == null || isRecord(variables)) &&
    (extensions == null || (isRecord(extensions) && Object.keys(extensions).length === 0))
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
