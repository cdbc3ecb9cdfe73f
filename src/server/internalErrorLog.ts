import type { ApolloServerPlugin } from '@apollo/server';
import { describeInternalError, isInternalError } from '../graphql/errors';
import { type Logger, REQUEST_ID_HEADER } from './logger';

/**
 * Logs the errors that formatError masks as INTERNAL, with the id of the request they happened
 * in (the request handler puts the id it chose among the headers Apollo sees).
 */
export function internalErrorLog(logger: Logger): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, request }) {
          const requestId = request.http?.headers.get(REQUEST_ID_HEADER);
          for (const error of errors) {
            if (isInternalError(error)) logger.error({ requestId }, describeInternalError(error.path, error.originalError ?? error));
          }
        },
      };
    },
  };
}
