import type { DocumentCache, PreparedOperation } from '../graphql/execution/documents';
import { setBounded } from './boundedMap';

/** Distinct Accept headers whose negotiated content type is kept; past that the oldest is dropped. */
const MAX_ACCEPT_HEADERS = 32;

/** A request for a known operation: what to execute, with what, and how to label the answer. */
export interface FastLaneRequest {
  operation: PreparedOperation;
  variables: Record<string, unknown> | undefined;
  contentType: string;
}

interface RequestBody {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/**
 * The HTTP fast lane's judge: which POSTs can be executed at once on the execution core, without
 * Apollo's per-request pipeline (plugin hook chains, a sha256 of the query text, content
 * negotiation, and the promises these make: a fifth of a read request's CPU in bench:profile).
 *
 * An operation is *known* when the core's document cache holds its query text as valid (Apollo or
 * the WebSocket had it prepared before: the first request of a text goes through Apollo) and the
 * name the request gives resolves to a query or mutation in it. An Accept header is known once
 * Apollo has answered it, with the content type it negotiated. Anything else (GET, batches,
 * persisted queries, other body shapes, invalid documents) goes to Apollo. A known operation
 * whose result holds errors is handed back to Apollo to answer (see presetOutcome in
 * src/graphql/execution/apollo.ts), so HTTP statuses are Apollo's alone. Successful results are
 * written as Apollo writes them; test/e2e/fastLane.redis.test.ts checks that both lanes
 * answer byte for byte alike.
 */
export class FastLane {
  /** By Accept header ('' when there is none), the content type Apollo answered it with. */
  private readonly contentTypes = new Map<string, string>();
  private open = true;

  constructor(private readonly documents: DocumentCache) {}

  /** Learns how Apollo answered a successful POST carrying this Accept header. */
  answered(accept: string | undefined, contentType: string): void {
    // The oldest goes, so that clients sending odd headers cannot keep the common ones out for good.
    setBounded(this.contentTypes, accept ?? '', contentType, MAX_ACCEPT_HEADERS);
  }

  /** The known operation a POST body asks for, or undefined when Apollo is to serve it. */
  match(body: unknown, accept: string | undefined): FastLaneRequest | undefined {
    const contentType = this.contentTypes.get(accept ?? '');
    if (!this.open || contentType === undefined || !isPlainRequest(body)) return undefined;
    const operation = this.documents.cached(body.query)?.operation(body.operationName);
    if (!operation || operation.operation.operation === 'subscription') return undefined;
    return { operation, variables: body.variables ?? undefined, contentType };
  }

  /** From now on Apollo serves every request (the server is stopping). */
  close(): void {
    this.open = false;
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
