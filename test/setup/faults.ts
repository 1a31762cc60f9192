import { beforeEach } from 'vitest';
import { scenarioReplay } from '../faults/seed.js';

// A failed scenario says how to replay it in its failure, which the summary at the end of the
// output repeats: the seed printed at the scenario's start may be long gone from a CI log's tail.
beforeEach(({ onTestFailed }) => {
  onTestFailed(({ task }) => {
    const replay = scenarioReplay();
    if (!replay) return;
    for (const error of task.result?.errors ?? [])
      error.message = `${error.message}\n(replay: ${replay})`;
  });
});
