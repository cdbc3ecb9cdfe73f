import { KeepAlive, type PingedSocket } from '../../../src/server/keepAlive';

/** A socket that records what the keep-alive did to it. */
class FakeSocket implements PingedSocket {
  readonly OPEN = 1;
  readyState = 1;
  pings = 0;
  terminated = false;
  ping(): void {
    this.pings++;
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('KeepAlive', () => {
  let keepAlive: KeepAlive | undefined;
  afterEach(() => keepAlive?.stop());

  it('pings every open socket each round and cuts one that left the last ping unanswered', () => {
    const [answers, silent, closing] = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    closing.readyState = 2;
    keepAlive = new KeepAlive([answers, silent, closing], 60_000);

    keepAlive.round();
    expect([answers.pings, silent.pings, closing.pings]).toEqual([1, 1, 0]);
    keepAlive.answered(answers);

    keepAlive.round();
    expect([answers.pings, silent.pings]).toEqual([2, 1]);
    expect([answers.terminated, silent.terminated, closing.terminated]).toEqual([false, true, false]);
  });

  it('reads the sockets at each round, so one that connected since is pinged too', () => {
    const sockets = new Set<FakeSocket>([new FakeSocket()]);
    keepAlive = new KeepAlive(sockets, 60_000);
    keepAlive.round();
    const late = new FakeSocket();
    sockets.add(late);
    keepAlive.round();
    expect(late.pings).toBe(1);
    expect(late.terminated).toBe(false);
  });
});
