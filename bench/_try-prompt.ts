import { promptEconomicsBench } from './prompt-economics';
import { formatTable } from './lib/table';
console.log(formatTable(await promptEconomicsBench({ quick: true })));
