import { createLoaders, type Loaders, type Services } from './loaders';

export interface Context extends Services {
  loaders: Loaders;
}

/** Called once per operation: fresh loaders, so cached reads never leak between requests. */
export function createContext(services: Services): Context {
  return { ...services, loaders: createLoaders(services) };
}
