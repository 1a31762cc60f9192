import solc from 'solc';

export interface CompiledContract {
  abi: unknown[];
  bytecode: `0x${string}`;
}
export type CompiledContracts = Record<
  'TestERC20' | 'TestERC721' | 'TestERC1155',
  CompiledContract
>;

/** Compiles the test token contracts with solc-js (no compiler download). */
export function compileTestContracts(source: string): CompiledContracts {
  const all = compileSolidity(source);
  const out = {} as CompiledContracts;
  for (const name of ['TestERC20', 'TestERC721', 'TestERC1155'] as const) out[name] = all[name]!;
  return out;
}

/** Every contract of one Solidity source, compiled with solc-js (no compiler download). */
export function compileSolidity(source: string): Record<string, CompiledContract> {
  const input = {
    language: 'Solidity',
    sources: { 'Source.sol': { content: source } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<
      string,
      Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>
    >;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  return Object.fromEntries(
    Object.entries(output.contracts['Source.sol']!).map(([name, c]) => [
      name,
      { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` as const },
    ]),
  );
}
