// Preloaded into the web shell (NODE_OPTIONS=--import; Node refuses --cpu-prof there) when
// WAYPOINT_BENCH_MAIN_PROFILE is set (bench/lib/shell.ts): main's CPU profile from start to exit,
// written to that directory as <pid>.cpuprofile. Open it in DevTools or read it with a script.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.WAYPOINT_BENCH_MAIN_PROFILE;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  // 200 µs, finer than Node's default 1 ms: a planning call is a few hundred microseconds.
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  // The inspector answers a post from the same thread at once, so this works inside 'exit'.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
