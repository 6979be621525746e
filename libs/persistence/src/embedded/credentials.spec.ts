import { parseStoredState } from './credentials.js';

describe('the credentials file of an embedded cluster', () => {
  it('reads the user, the password, the last port and the owner pid', () => {
    expect(parseStoredState('{"user":"postgres","password":"p","port":5433,"ownerPid":77}')).toEqual({
      user: 'postgres',
      password: 'p',
      port: 5433,
      ownerPid: 77,
    });
  });

  it('is no credentials file without a user and a password, or when it is not JSON', () => {
    expect(parseStoredState('{"user":"postgres"}')).toBeUndefined();
    expect(parseStoredState('{"password":"p"}')).toBeUndefined();
    expect(parseStoredState('null')).toBeUndefined();
    expect(parseStoredState('{"user":')).toBeUndefined();
  });
});
