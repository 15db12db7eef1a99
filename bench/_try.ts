import { formatTable } from './lib/table';
const name = process.argv[2]!;
const mod = await import(`./${name}.ts`);
const bench = Object.values(mod).find((v) => typeof v === 'function' && /Bench$/.test((v as Function).name)) as (o: { quick: boolean }) => Promise<never>;
const t = Date.now();
console.log(formatTable(await bench({ quick: process.argv.includes('--quick') })));
console.log('took', Date.now() - t, 'ms');
