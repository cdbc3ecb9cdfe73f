import * as addSeasons from './add_seasons';
import * as around from './around';
import * as createBoard from './create_board';
import * as deleteBoard from './delete_board';
import * as denseRank from './dense_rank';
import * as entries from './entries';
import * as page from './page';
import * as rateLimit from './rate_limit';
import * as readBuckets from './read_buckets';
import * as removeMany from './remove_many';
import * as scoreAt from './score_at';
import * as submit from './submit';
import * as updateBoard from './update_board';

/**
 * Every script by name, with the contract its module declares: test/unit/store/scripts.test.ts
 * checks that each file in ../scripts has its module here and that its header names the reply
 * fields its module reads; test/redis/store/publishing.redis.test.ts that those that change a
 * board publish exactly when they do.
 */
export const SCRIPTS = {
  create_board: createBoard.contract,
  delete_board: deleteBoard.contract,
  submit: submit.contract,
  remove_many: removeMany.contract,
  update_board: updateBoard.contract,
  add_seasons: addSeasons.contract,
  entries: entries.contract,
  page: page.contract,
  around: around.contract,
  score_at: scoreAt.contract,
  read_buckets: readBuckets.contract,
  dense_rank: denseRank.contract,
  rate_limit: rateLimit.contract,
};

export type ScriptName = keyof typeof SCRIPTS;
