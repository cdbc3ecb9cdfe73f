import {
  type ArgumentNode, type ASTNode, type DocumentNode, type FieldNode, type FragmentDefinitionNode, GraphQLError, type GraphQLField, type GraphQLNamedType,
  type GraphQLSchema, type OperationDefinitionNode, type ParseOptions, getNamedType, getNullableType, isInterfaceType, isListType, isObjectType, Kind,
  SchemaMetaFieldDef, type SelectionSetNode, TypeMetaFieldDef, TypeNameMetaFieldDef, type ValidationRule, type ValueNode, visit, BREAK,
} from 'graphql';
import {
  DEFAULT_PAGE_SIZE, MAX_BATCH_SIZE, MAX_OPERATION_VIEWS, MAX_PAGE_SIZE, MAX_QUERY_ALIASES, MAX_QUERY_COST, MAX_QUERY_DEPTH, MAX_QUERY_TOKENS, MAX_RADIUS,
} from '../domain/limits';
import { MAX_KEPT_PERIODS, MAX_RETENTION } from '../domain/periods/settings';
import { ErrorCode } from '../errors';
import { entriesNamedBy, namesView } from './nodeIds';

/**
 * The limits on what one document may ask for, as options for graphql-js: the HTTP server (Apollo's
 * `parseOptions` and `validationRules`) and the WebSocket server use these same values, so neither
 * door is wider than the other.
 */
export const parseOptions: ParseOptions = { maxTokens: MAX_QUERY_TOKENS };

interface Measure {
  /** Levels of fields below (and including) this selection. */
  depth: number;
  aliases: number;
  /** Combined views opened: `combined` fields, and Node ids that name a view or what is on one. */
  views: number;
  /** Fields resolved, a list's fields counted once per item it may hold. */
  cost: number;
}

const NOTHING: Measure = { depth: 0, aliases: 0, cost: 0, views: 0 };

/** The fields every type has (`__typename`) or the query root has (`__schema`, `__type`), which getFields() leaves out. */
const META_FIELDS: ReadonlyMap<string, GraphQLField<unknown, unknown>> = new Map(
  [SchemaMetaFieldDef, TypeMetaFieldDef, TypeNameMetaFieldDef].map((field) => [field.name, field]),
);

/**
 * Depth, aliases and cost of each operation, in one walk that follows fragments. A field costs 1,
 * and its sub-selection costs as many times over as the field may return items: `first`, `last`
 * and `limit` are page sizes, `radius` gives 2 * radius + 1 entries, and a list argument (`playerIds`,
 * `inputs`) one item per element. A Node id counts as the arguments it holds (a RankWindow's
 * radius, a TopUpdate's `first`) would if written out. A variable counts as the largest value it
 * may take, since validation runs before variables are known, except for ids, which count as an
 * object each until `nodeIdsCost` measures them with the request's variables. Introspection
 * (`__schema`, `__type`, `__typename`) costs nothing and adds no depth: it is off in production,
 * and the explorer needs it in development. Aliases count wherever they are, introspection included.
 */
const queryLimitsRule: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    const root = context.getSchema().getRootType(operation.operation);
    if (!root) return; // reported by graphql-js' own rules
    const { depth, aliases, cost, views } = new Measurer(context.getSchema(), (name) => context.getFragment(name) ?? undefined).selectionSet(operation.selectionSet, root);
    const over = (limit: string, maximum: number, found: number, message: string) => context.reportError(overLimit(operation, limit, maximum, found, message));
    if (depth > MAX_QUERY_DEPTH) {
      over('depth', MAX_QUERY_DEPTH, depth, `Fields are nested ${depth} levels deep; at most ${MAX_QUERY_DEPTH} are allowed`);
    }
    if (aliases > MAX_QUERY_ALIASES) {
      over('aliases', MAX_QUERY_ALIASES, aliases, `The operation has ${aliases} aliases; at most ${MAX_QUERY_ALIASES} are allowed`);
    }
    if (cost > MAX_QUERY_COST) context.reportError(overCost(operation, cost));
    if (views > MAX_OPERATION_VIEWS) context.reportError(overViews(operation, views));
  },
});

/**
 * Each view a request opens is checked and, unless fresh, priced and built: a request naming many
 * (aliases of `combined` with other weights, crafted ids) costs that work for each, however few
 * fields it reads of them. No screen needs more than a few views at once.
 */
function overViews(node: ASTNode, views: number): GraphQLError {
  return overLimit(node, 'views', MAX_OPERATION_VIEWS, views,
    `The operation opens ${views} combined views (\`combined\` fields and Node ids of views); at most ${MAX_OPERATION_VIEWS} are allowed`);
}

function overLimit(node: ASTNode, limit: string, maximum: number, found: number, message: string): GraphQLError {
  return new GraphQLError(message, { nodes: node, extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED, details: { limit, maximum, found } } });
}

function overCost(node: ASTNode, cost: number): GraphQLError {
  // Nested lists multiply: a deep enough query counts past 2^53, where the figure is no longer
  // exact and JavaScript would write it as 3.3e+215.
  const counted = cost > Number.MAX_SAFE_INTEGER ? `more than ${Number.MAX_SAFE_INTEGER}` : String(cost);
  return overLimit(node, 'cost', MAX_QUERY_COST, cost,
    `The operation could resolve ${counted} fields (a list counts at its largest size); at most ${MAX_QUERY_COST} are allowed`);
}

/** Whether an operation passes Node ids in variables, which only `nodeIdsCost` can measure. */
const idsInVariables = new WeakMap<OperationDefinitionNode, boolean>();

/**
 * The cost limit of queryLimitsRule, measured again with the request's variables when the
 * operation passes Node ids in them (`node(id: $id)`, `nodes(ids: $ids)`): the error refusing it,
 * or undefined. Every transport runs it before executing (see core.ts), so an id in a variable
 * costs what the same id written in the query does. Operations without such ids pass at once.
 */
export function nodeIdsCost(
  schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> | null | undefined,
): GraphQLError | undefined {
  let measured = idsInVariables.get(operation);
  if (measured === undefined) idsInVariables.set(operation, (measured = passesIdsInVariables(operation, document)));
  if (!measured) return undefined;
  const root = schema.getRootType(operation.operation);
  if (!root) return undefined;
  const fragments = new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const { cost, views } = new Measurer(schema, (name) => fragments.get(name), variables ?? {}).selectionSet(operation.selectionSet, root);
  if (views > MAX_OPERATION_VIEWS) return overViews(operation, views);
  return cost > MAX_QUERY_COST ? overCost(operation, cost) : undefined;
}

function passesIdsInVariables(operation: OperationDefinitionNode, document: DocumentNode): boolean {
  let found = false;
  const look = (node: ASTNode) => visit(node, {
    Field(field) {
      if (!NODE_FIELDS.has(field.name.value)) return;
      if (!field.arguments?.some((arg) => ID_ARGUMENTS.has(arg.name.value) && holdsVariable(arg.value))) return undefined;
      found = true;
      return BREAK;
    },
  });
  look(operation);
  // Fragments may hold the field; measuring a document that does not need it only costs a walk.
  for (const definition of document.definitions) if (!found && definition.kind === Kind.FRAGMENT_DEFINITION) look(definition);
  return found;
}

const NODE_FIELDS: ReadonlySet<string> = new Set(['node', 'nodes']);
const ID_ARGUMENTS: ReadonlySet<string> = new Set(['id', 'ids']);
const holdsVariable = (value: ValueNode): boolean => value.kind === Kind.VARIABLE || (value.kind === Kind.LIST && value.values.some(holdsVariable));

/**
 * A subscription's root field under @skip or @include: graphql-js 16 would find no field to
 * subscribe to and throw while subscribing (an internal error for what a client sent). Later
 * versions of the GraphQL spec forbid it; so does this rule, for fields and the fragments at the
 * root alike.
 */
const conditionalSubscriptionRule: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    if (operation.operation !== 'subscription') return;
    const check = (set: SelectionSetNode, seen: Set<string>) => {
      for (const selection of set.selections) {
        const conditional = selection.directives?.find((directive) => directive.name.value === 'skip' || directive.name.value === 'include');
        if (conditional) {
          context.reportError(new GraphQLError(`A subscription's root field may not be under @${conditional.name.value}: subscribe to it, or not at all`, {
            nodes: conditional, extensions: { code: ErrorCode.GRAPHQL_VALIDATION_FAILED },
          }));
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          check(selection.selectionSet, seen);
        } else if (selection.kind === Kind.FRAGMENT_SPREAD && !seen.has(selection.name.value)) {
          seen.add(selection.name.value);
          const fragment = context.getFragment(selection.name.value);
          if (fragment) check(fragment.selectionSet, seen);
        }
      }
    };
    check(operation.selectionSet, new Set());
  },
});

/** The rules both servers add to graphql-js' specified ones. */
export const validationRules: readonly ValidationRule[] = [queryLimitsRule, conditionalSubscriptionRule];

class Measurer {
  /** A fragment spread many times is measured once; `null` marks one being measured (a cycle). */
  private readonly fragments = new Map<string, Measure | null>();

  /** `variables`: the request's, once known (nodeIdsCost); before, variables count as in queryLimitsRule. */
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragmentNamed: (name: string) => FragmentDefinitionNode | undefined,
    private readonly variables?: Record<string, unknown>,
  ) {}

  selectionSet(set: SelectionSetNode, parent: GraphQLNamedType): Measure {
    let depth = 0;
    let aliases = 0;
    let cost = 0;
    let views = 0;
    for (const selection of set.selections) {
      let part: Measure;
      if (selection.kind === Kind.FIELD) {
        part = this.field(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? this.schema.getType(selection.typeCondition.name.value) : parent;
        part = type ? this.selectionSet(selection.selectionSet, type) : NOTHING;
      } else {
        part = this.fragment(selection.name.value);
      }
      depth = Math.max(depth, part.depth);
      aliases += part.aliases;
      cost += part.cost;
      views += part.views;
    }
    return { depth, aliases, cost, views };
  }

  private field(node: FieldNode, parent: GraphQLNamedType): Measure {
    const meta = META_FIELDS.get(node.name.value);
    const definition = meta ?? (isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[node.name.value] : undefined);
    const below = node.selectionSet && definition
      ? this.selectionSet(node.selectionSet, getNamedType(definition.type))
      : NOTHING;
    const aliases = below.aliases + (node.alias ? 1 : 0);
    // Introspection is free (see queryLimitsRule), but not its aliases: each is one more field in
    // the answer, and `__typename` needs no introspection to be asked for hundreds of times.
    if (meta) return { depth: 0, aliases, cost: 0, views: below.views };
    const ids = this.idsOf(parent, node);
    const items = ids && Math.max(1, ids.reduce((total, id) => total + entriesNamedBy(id), 0));
    const views = below.views + (parent.name === 'Query' && node.name.value === 'combined' ? 1 : (ids?.filter(namesView).length ?? 0));
    return {
      depth: below.depth + 1,
      aliases,
      cost: 1 + (definition ? boundedList(parent, node) ?? items ?? itemsOf(definition, node.arguments ?? []) : 1) * below.cost,
      views,
    };
  }

  private fragment(name: string): Measure {
    const known = this.fragments.get(name);
    if (known !== undefined) return known ?? NOTHING; // null: a cycle, which NoFragmentCyclesRule reports
    const fragment = this.fragmentNamed(name);
    const type = fragment && this.schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !type) return NOTHING;
    this.fragments.set(name, null);
    const measured = this.selectionSet(fragment.selectionSet, type);
    this.fragments.set(name, measured);
    return measured;
  }

  /**
   * The ids `node(id:)` or `nodes(ids:)` is asked for, whose items count as what each names
   * (entriesNamedBy); undefined for other fields, or while an id is a variable not yet known.
   */
  private idsOf(parent: GraphQLNamedType, node: FieldNode): string[] | undefined {
    if (parent.name !== 'Query' || !NODE_FIELDS.has(node.name.value)) return undefined;
    const value = node.arguments?.find((arg) => ID_ARGUMENTS.has(arg.name.value))?.value;
    const ids = value && this.valueOf(value);
    if (ids === undefined || ids === null) return undefined;
    const list: unknown[] = Array.isArray(ids) ? ids : [ids];
    // Not ids (a wrong type is refused when variables are coerced): as many items as the list says.
    return list.every((id): id is string => typeof id === 'string') ? list : undefined;
  }

  /** A literal's value, or a variable's when known; undefined while not known. */
  private valueOf(value: ValueNode): unknown {
    switch (value.kind) {
      case Kind.STRING:
        return value.value;
      case Kind.VARIABLE:
        return this.variables?.[value.name.value];
      case Kind.LIST: {
        const values = value.values.map((item) => this.valueOf(item));
        return values.includes(undefined) ? undefined : values;
      }
      default:
        return null;
    }
  }
}



/**
 * How many items a field returns when its arguments do not say: `periods` lists every kept period
 * (one kind's with `kind`), each with the board's reads, bounded by a board's settings; `combined`
 * is one view, however many sources its list argument names (at most MAX_COMBINED_SOURCES, read
 * by one build). Undefined for other fields.
 */
function boundedList(parent: GraphQLNamedType, node: FieldNode): number | undefined {
  if (parent.name === 'Query' && node.name.value === 'combined') return 1;
  if (parent.name !== 'Leaderboard' || node.name.value !== 'periods') return undefined;
  const kind = node.arguments?.find((arg) => arg.name.value === 'kind')?.value;
  return kind?.kind === Kind.ENUM ? MAX_RETENTION : MAX_KEPT_PERIODS;
}

/** How many items a field may return, from its size arguments (see queryLimitsRule). */
function itemsOf(field: GraphQLField<unknown, unknown>, args: readonly ArgumentNode[]): number {
  let items = 1;
  for (const definition of field.args) {
    const node = args.find((arg) => arg.name.value === definition.name)?.value;
    const isList = isListType(getNullableType(definition.type));
    let largest: number;
    let toItems = (value: number) => value;
    if (isList) {
      largest = MAX_BATCH_SIZE;
    } else if (definition.name === 'first' || definition.name === 'last' || definition.name === 'limit') {
      largest = MAX_PAGE_SIZE;
    } else if (definition.name === 'radius') {
      largest = MAX_RADIUS;
      toItems = (radius) => 2 * radius + 1;
    } else {
      continue;
    }
    let value: number;
    if (node === undefined) {
      const fallback = definition.defaultValue;
      // A connection's `first` and `last` have no default: without either, a page has the default size.
      const unset = definition.name === 'first' || definition.name === 'last' ? DEFAULT_PAGE_SIZE : 1;
      value = Array.isArray(fallback) ? fallback.length : typeof fallback === 'number' ? fallback : unset;
    } else if (node.kind === Kind.VARIABLE) {
      value = largest;
    } else if (node.kind === Kind.LIST) {
      value = node.values.length;
    } else if (node.kind === Kind.INT) {
      value = Number(node.value);
    } else {
      value = 1; // a single value where a list is expected, or null
    }
    // Out-of-range sizes are refused with a precise BAD_USER_INPUT later; here they count as the largest allowed.
    items = Math.max(items, toItems(Math.min(Math.max(value, 0), largest)));
  }
  return items;
}
