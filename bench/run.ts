/**
 * `npm run bench`: benchmarks printed as ratios against baselines measured in
 * the same run. Add a benchmark as a function in this folder and list it here.
 */
import { benchQueueOverhead } from './queueOverhead';
import { benchBundleSize } from './bundleSize';
import { benchJournal } from './journalBench';
import { benchGuardScan } from './guardScan';
import { benchScheduler } from './schedulerBench';
import { benchClaims } from './claims';
import { benchOutput } from './outputBench';
import { benchSetup } from './setupBench';
import { benchLifecycle } from './lifecycleBench';
import { benchAgentCost } from './agentCostBench';
import { benchStartup } from './startupBench';
import { benchProcessCount } from './processCount';
import { benchE2e } from './e2eBench';
import { benchCliStartup } from './cliStartupBench';
import { benchSupervisorStart } from './supervisorStartBench';

const all = [
  benchBundleSize,
  benchQueueOverhead,
  benchJournal,
  benchGuardScan,
  benchScheduler,
  benchClaims,
  benchOutput,
  benchSetup,
  benchLifecycle,
  benchAgentCost,
  benchStartup,
  benchProcessCount,
  benchE2e,
  benchCliStartup,
  benchSupervisorStart,
];
// `npm run bench -- journal` runs only the benchmarks whose title or name matches.
const filter = process.argv.slice(2).join(' ').toLowerCase();
const benches = filter ? all.filter((b) => `${b.name} ${b.title}`.toLowerCase().includes(filter)) : all;
for (const bench of benches) {
  const started = Date.now();
  console.log(`\n## ${bench.title}`);
  await bench();
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
