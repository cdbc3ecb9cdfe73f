import type { Principal } from '../domain/access';
import { createLoaders, type Loaders, type Services } from './loaders';

export interface Context extends Services {
  loaders: Loaders;
  /** Whose key the request presented (see src/graphql/access.ts for what each role may do). */
  principal: Principal;
}

/** Called once per operation: fresh loaders, so cached reads never leak between requests. */
export function createContext(services: Services, principal: Principal): Context {
  const { leaderboards, players, live } = services;
  return { leaderboards, players, live, loaders: createLoaders(services), principal };
}
