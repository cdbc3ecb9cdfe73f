import { type FragmentDefinitionNode, getArgumentValues, type GraphQLSchema, Kind } from 'graphql';
import { collectFields } from 'graphql/execution/collectFields';
import { MAX_PAGE_SIZE, MAX_RADIUS } from '../domain/limits';
import type { SubscriptionResolvers } from '../generated/graphql';
import type { PreparedOperation } from './execution/documents';

/**
 * A size argument: values out of range (or null) are refused by the live layer with a precise
 * BAD_USER_INPUT, so here they only have to count no more than the largest allowed.
 */
const sized = (value: unknown, largest: number) => (typeof value === 'number' ? Math.min(Math.max(value, 0), largest) : 0);

/**
 * The entries each update of a subscription to the field may carry, from its coerced arguments
 * (defaults applied): what its snapshots and updates cost to read, execute and send. Typed by
 * the resolvers, so a new Subscription field does not build until it is given a cost here.
 */
const COSTS: { readonly [Field in keyof Required<SubscriptionResolvers>]: (args: Record<string, unknown>) => number } = {
  rankChanged: () => 1,
  topChanged: ({ first }) => sized(first, MAX_PAGE_SIZE),
  aroundChanged: ({ radius }) => 2 * sized(radius, MAX_RADIUS) + 1,
  entrySubmitted: () => 1,
};

/**
 * What one live subscription costs (see COSTS), from its operation and its variables, coerced:
 * a variable counts as the value it has, as a literal would. The root field is found as graphql-js'
 * `subscribe` finds it (through fragments, with the variables of @skip and @include); an operation
 * that selects none costs nothing, and subscribing to it fails on its own.
 */
export function subscriptionCost(
  schema: GraphQLSchema, { document, operation }: Pick<PreparedOperation, 'document' | 'operation'>, variables: Record<string, unknown>,
): number {
  const root = schema.getSubscriptionType();
  if (!root) return 0;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const [fieldNodes] = collectFields(schema, fragments, variables, root, operation.selectionSet).values();
  const field = fieldNodes && root.getFields()[fieldNodes[0].name.value];
  if (!field) return 0;
  // Only a schema other than Standings' (a test's) has fields without a cost.
  const cost = (COSTS as Partial<Record<string, (args: Record<string, unknown>) => number>>)[field.name];
  return cost ? cost(getArgumentValues(field, fieldNodes[0], variables)) : 1;
}
