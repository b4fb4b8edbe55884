// What `npm pack` ships installs into an empty project and works there through both doors: the
// API (`import { compare } from 'mmapbench'`) and `npx mmapbench`. Installed from the tarball,
// its dependencies from npm's cache (the suite's own `npm ci` filled it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const env = { ...process.env, NO_COLOR: '1', npm_config_audit: 'false', npm_config_fund: 'false' };

test(
  'the packed tarball installs into an empty project; the API and npx run a quick compare there',
  { timeout: 300_000 },
  async () => {
    const packs = mkdtempSync(join(tmpdir(), 'mmapbench-pack-'));
    const pack = await execa('npm', ['pack', '--pack-destination', packs], { cwd: ROOT, env, reject: false });
    assert.equal(pack.exitCode, 0, pack.stderr);
    const [tarball] = readdirSync(packs).filter((name) => name.endsWith('.tgz'));
    assert.ok(tarball, 'a tarball');
    const listed = (await execa('tar', ['-tzf', join(packs, tarball)])).stdout.split('\n');
    assert.ok(listed.includes('package/dist/types/api.d.ts'), 'the declarations');
    assert.ok(listed.includes('package/action.yml'));
    assert.ok(!listed.some((path) => path.startsWith('package/test/')), 'no test data');

    const project = mkdtempSync(join(tmpdir(), 'mmapbench-project-'));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'uses-mmapbench', private: true, type: 'module' }),
    );
    const install = await execa('npm', ['install', '--prefer-offline', join(packs, tarball)], {
      cwd: project,
      env,
      reject: false,
    });
    assert.equal(install.exitCode, 0, install.stderr);

    const api = await execa(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { compare } from 'mmapbench'; const d = await compare({ quick: true }); console.log(d.command, d.status, d.points[0].rounds.length);",
      ],
      { cwd: project, env, reject: false },
    );
    assert.equal(api.exitCode, 0, api.stderr);
    assert.equal(api.stdout, 'compare complete 2');
    const npx = await execa('npx', ['mmapbench', 'compare', '--quick', '--no-save'], {
      cwd: project,
      env,
      reject: false,
    });
    assert.equal(npx.exitCode, 0, npx.stderr);
    assert.match(npx.stdout, /^mmapbench compare: readfilesync, med \(64 KiB\), k=\d/);
  },
);
