import { ANONYMOUS_READER, type Principal } from '../domain/access';
import { type ClientViewCharges, ViewBudget } from '../domain/combined';
import type { Leaderboards } from '../domain/leaderboards';
import type { LiveBoards } from '../domain/live/liveBoards';
import type { Players } from '../domain/players';
import { createLoaders, type Loaders } from './loaders';
import type { UserErrorObserver } from './userErrors';

/** The domain services every operation's resolvers call, shared by all requests. */
export interface Services {
  leaderboards: Leaderboards;
  players: Players;
  live: LiveBoards;
}

export interface Context extends Services {
  loaders: Loaders;
  /** Whose key the request presented (see src/graphql/mutationGuard.ts for what each role may do). */
  principal: Principal;
  /** Told of each userError a mutation's payload carries (see refusalOf). */
  observeUserError: UserErrorObserver;
  /** What the combined views this operation builds may read (see ViewBudget). */
  viewBudget: ViewBudget;
}

/** Counts entries that view builds read against the client's allowance over time (see ClientViewCharges). */
export type ChargeViews = ClientViewCharges;

/**
 * Called once per operation: fresh loaders, so cached reads never leak between requests, and a
 * fresh budget for view builds, charged to the client through `chargeViews` when given.
 */
export function createContext(services: Services, principal: Principal, observeUserError: UserErrorObserver, chargeViews?: ChargeViews): Context {
  const { leaderboards, players, live } = services;
  return { leaderboards, players, live, loaders: createLoaders(services), principal, observeUserError, viewBudget: new ViewBudget(chargeViews) };
}

/**
 * The context an event of a subscription is executed with. One result serves every subscriber of
 * the same operation (src/graphql/execution/live.ts), so nothing below Subscription may depend on
 * who subscribed: reading `principal` here throws, and a resolver that did would fail every test
 * that runs it instead of quietly answering everyone as somebody.
 */
export function createEventContext(services: Services): Context {
  // Subscriptions run no mutation: nothing makes a userError.
  const context = createContext(services, ANONYMOUS_READER, () => undefined);
  Object.defineProperty(context, 'principal', {
    get() {
      throw new Error('A resolver below Subscription read who subscribed: its result is shared by every subscriber');
    },
  });
  return context;
}
