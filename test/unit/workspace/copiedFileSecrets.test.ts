import assert from 'node:assert/strict';
import { fileSecrets } from '../../../src/core/workspace/copiedFileSecrets';

describe('the secrets of a copied file', () => {
  it('env lines give their values (export, quotes, comments); trivial values are skipped', () => {
    const text = [
      '# a comment with a long enough text',
      'DB_PASSWORD=hunter2-Correct-Horse',
      'export STRIPE_KEY="sk_live_51Hx9dQeZvKYlo2C8xY7a"',
      "SALT='9f86d081884c7d659a2feaa0c55ad015'",
      'URL=postgres://me:pw@db:5432/app # the database',
      'DB_PASS=abc123',
      'DEBUG=true',
      'PORT=1',
      'WORKERS=12345678',
      'HOST=localhost',
      'NODE_ENV=production',
      'API_URL=https://api.example.com/v1',
      'HOOK_URL=https://hooks.example.com/x?sig=0a1b2c3d4e',
      'EMPTY=',
    ].join('\n');
    assert.deepEqual(fileSecrets('.env', text), [
      { name: 'DB_PASSWORD in .env', value: 'hunter2-Correct-Horse' },
      { name: 'STRIPE_KEY in .env', value: 'sk_live_51Hx9dQeZvKYlo2C8xY7a' },
      { name: 'SALT in .env', value: '9f86d081884c7d659a2feaa0c55ad015' },
      { name: 'URL in .env', value: 'postgres://me:pw@db:5432/app' },
      { name: 'DB_PASS in .env', value: 'abc123' },
      { name: 'HOOK_URL in .env', value: 'https://hooks.example.com/x?sig=0a1b2c3d4e' },
    ]);
  });

  it('other files give their values (ini, JSON) and their non-trivial lines', () => {
    const ini = '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n';
    assert.deepEqual(fileSecrets('credentials', ini), [
      { name: 'aws_access_key_id in credentials', value: 'AKIAIOSFODNN7EXAMPLE' },
    ]);
    const json = '{\n  "type": "service_account",\n  "private_key_id": "0123456789abcdef",\n}\n';
    assert.deepEqual(fileSecrets('key.json', json), [
      { name: 'private_key_id in key.json', value: '0123456789abcdef' },
    ]);
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n';
    assert.deepEqual(
      fileSecrets('dev.pem', pem).map((s) => s.name),
      ['line 1 of dev.pem', 'line 2 of dev.pem', 'line 3 of dev.pem'],
    );
  });
});
