/**
 * `npm run bench`: benchmarks printed as ratios against baselines measured in
 * the same run. Add a benchmark as a function in this folder and list it here.
 */
import { benchQueueOverhead } from './queueOverhead';
import { benchBundleSize } from './bundleSize';

const benches = [benchBundleSize, benchQueueOverhead];
for (const bench of benches) {
  const started = Date.now();
  console.log(`\n## ${bench.title}`);
  await bench();
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
