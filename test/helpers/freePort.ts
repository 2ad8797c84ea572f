import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close((error) =>
        error ? reject(error) : port ? resolve(port) : reject(new Error('could not get a free port')),
      );
    });
  });
}
