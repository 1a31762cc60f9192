// Local EVM dev chain for `npm start` and the tests (Hardhat 2 node; no compiler is downloaded).
// Automine: every transaction is mined at once. Interval mining adds an empty block every second
// so that confirmations keep arriving on an otherwise idle chain; tests switch it off with
// `evm_setIntervalMining` and mine blocks themselves.
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      mining: { auto: true, interval: 1000 },
      loggingEnabled: false,
    },
  },
};
