import { engineBench } from './engine';
import { formatTable } from './lib/table';
const t = Date.now();
console.log(formatTable(await engineBench({ quick: process.argv.includes('--quick') })));
console.log('took', Date.now() - t);
