// Starts a real `basalt serve` on free loopback ports in a fresh data directory, as
// tests/http/conftest.py does, and stops it with SIGTERM.
import {spawn} from 'node:child_process';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';

// `config`, when given, is written to a config file the server reads (--config).
export async function startServer(binary, extraArgs = [], config = null) {
  if (!binary) throw new Error('set BASALT_BINARY to the basalt binary (CTest does)');
  const dir = mkdtempSync(join(tmpdir(), 'basalt-browser-'));
  if (config !== null) {
    writeFileSync(join(dir, 'serve.json'), JSON.stringify(config));
    extraArgs = [...extraArgs, '--config', join(dir, 'serve.json')];
  }
  const proc = spawn(binary, ['serve', '--data', join(dir, 'data'), '--port', '0',
                              '--thrift-port', '0', '--thrift1-port', '0', '--hbase-rpc-port', '0',
                              '--access-log', join(dir, 'access.log'),
                              ...extraArgs],
                     {stdio: ['ignore', 'pipe', 'pipe']});
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('basalt serve did not start: ' + out + stderr)), 30000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on http:\/\/([0-9.]+):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[2]}`);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`basalt serve exited with ${code}: ${out}${stderr}`));
    });
  });
  return {
    url,
    async stop() {
      if (proc.exitCode === null) {
        const exited = new Promise((resolve) => proc.on('exit', resolve));
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 20000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, {recursive: true, force: true});
      return proc.exitCode;
    },
  };
}
