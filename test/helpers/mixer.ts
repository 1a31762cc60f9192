import type { Hex } from 'viem';
import { compileSolidity } from './contracts.js';

/**
 * Contracts that move coin inside a transaction, for the tests of internal transfers: a
 * Tornado-style `Mixer` (deposits by a plain send; `withdraw` pays a recipient, sent by a
 * relayer; `tryPay` calls a `Refuser`, whose revert is caught, so the call succeeds and moves
 * nothing; `spawn` creates a `Child` with a value; `bye` self-destructs to an heir), and a
 * `Refunder` that pays half of what it is sent back to the sender in the same transaction.
 */
export const { Mixer, Refuser, Refunder } = compileSolidity(`
pragma solidity ^0.8.20;
contract Refuser { function take() external payable { revert("no"); } }
contract Refunder { receive() external payable { payable(msg.sender).transfer(msg.value / 2); } }
contract Child { constructor() payable {} }
contract Mixer {
  receive() external payable {}
  function withdraw(address payable to, uint256 v) external {
    (bool ok, ) = to.call{value: v}("");
    require(ok, "payout failed");
  }
  function tryPay(address to, uint256 v) external {
    try Refuser(to).take{value: v}() {} catch {}
  }
  function spawn(uint256 v) external returns (address) { return address(new Child{value: v}()); }
  function bye(address payable to) external { selfdestruct(to); }
}
`) as Record<string, { abi: unknown[]; bytecode: Hex }>;
