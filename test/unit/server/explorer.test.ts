import { explorerHeaders } from '../../../src/server/explorer';

const at = (address: string) => ({ address, family: address.includes(':') ? 'IPv6' : 'IPv4', port: 4000 });

describe('explorerHeaders', () => {
  it('offers the development key while the server listens on loopback alone', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(JSON.parse(explorerHeaders(at(address), 'dev-key-0123456789'))).toEqual({ Authorization: 'Bearer dev-key-0123456789' });
    }
  });

  it('never puts it in a page other machines can load', () => {
    for (const address of ['0.0.0.0', '::', '10.0.0.5', 'fd00::1']) {
      expect(JSON.parse(explorerHeaders(at(address), 'dev-key-0123456789'))).toEqual({});
    }
    expect(JSON.parse(explorerHeaders(null, 'dev-key-0123456789'))).toEqual({});
  });

  it('starts empty without a development key (keys configured, or not development)', () => {
    expect(JSON.parse(explorerHeaders(at('127.0.0.1'), undefined))).toEqual({});
  });
});
