import { readFile } from 'node:fs/promises';
import ganache from 'ganache';
import solc from 'solc';
import {
  type Abi,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

export interface TestEthereumNode {
  rpcUrl: string;
  /** Funded accounts of the node (deterministic), with their private keys. */
  accounts: { address: `0x${string}`; privateKey: `0x${string}` }[];
  /** Compiles TestToken.sol with solc (once per process) and deploys it from accounts[0]; returns the EIP-55 contract address. */
  deployToken(): Promise<`0x${string}`>;
  /** Sends wei from the account at index `from`; the transaction is mined before this resolves. */
  sendEth(input: { from: number; to: string; amountWei: bigint }): Promise<`0x${string}`>;
  /**
   * Calls `transfer` on a token from the account at index `from`, mined before this resolves. The
   * gas limit is fixed, so a transfer that will fail is still sent (and mined as reverted) rather
   * than refused when the gas is estimated.
   */
  sendToken(input: { token: string; from: number; to: string; amountBaseUnits: bigint }): Promise<`0x${string}`>;
  /** Mines `count` empty blocks (evm_mine), so a transaction gains confirmations. */
  mine(count: number): Promise<void>;
  close(): Promise<void>;
}

const chainId = 1337;

/** Ample for a token transfer (about 52k gas when the receiver holds nothing yet). */
const tokenTransferGas = 100_000n;

/** 1,000,000,000 tokens of 6 decimals, all to the deployer. */
const tokenInitialSupplyBaseUnits = 1_000_000_000n * 10n ** 6n;

interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
}

let compiledToken: Promise<CompiledContract> | undefined;

/**
 * TestToken.sol compiled by the solc-js the repository installs; it carries its own compiler, so
 * nothing is downloaded. Compiling takes about a second, so every node of the process shares it.
 */
function compileTestToken(): Promise<CompiledContract> {
  compiledToken ??= (async () => {
    const source = await readFile(new URL('./erc20/TestToken.sol', import.meta.url), 'utf8');
    const input = {
      language: 'Solidity',
      sources: { 'TestToken.sol': { content: source } },
      settings: {
        // solc 0.8.x targets newer hardforks than ganache 7 runs (shanghai, its default and latest);
        // code for a later EVM would use opcodes ganache does not know, e.g. MCOPY from cancun.
        evmVersion: 'shanghai',
        optimizer: { enabled: true, runs: 200 },
        outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
      },
    };
    const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
      errors?: { severity: string; formattedMessage: string }[];
      contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
    };
    const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
    if (errors.length > 0) throw new Error(`TestToken.sol does not compile:\n${errors.map((error) => error.formattedMessage).join('\n')}`);
    const contract = output.contracts?.['TestToken.sol']?.TestToken;
    if (!contract) throw new Error('solc returned no TestToken contract');
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  })();
  // A failed compile is not cached, so the next test shows the same error instead of a stale one.
  compiledToken.catch(() => {
    compiledToken = undefined;
  });
  return compiledToken;
}

/**
 * A local Ethereum development node (ganache, in this process) on a free port of 127.0.0.1. It
 * mines every transaction as it arrives and otherwise only when told to, so block numbers, and
 * with them confirmations, move only when a test moves them.
 */
export async function startEthereumNode(): Promise<TestEthereumNode> {
  const server = ganache.server({ logging: { quiet: true }, wallet: { deterministic: true }, chain: { chainId } });
  await server.listen(0, '127.0.0.1');
  const rpcUrl = `http://127.0.0.1:${server.address().port}`;

  const accounts = Object.entries(server.provider.getInitialAccounts()).map(([address, { secretKey }]) => ({
    address: getAddress(address),
    privateKey: secretKey as `0x${string}`,
  }));

  const chain = defineChain({
    id: chainId,
    name: 'ganache',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient: PublicClient = createPublicClient({ chain, transport, pollingInterval: 20 });

  function walletOf(index: number) {
    const account = accounts[index];
    if (!account) throw new Error(`the node has ${accounts.length} accounts, there is no account ${index}`);
    return createWalletClient({ account: privateKeyToAccount(account.privateKey), chain, transport });
  }

  // The node mines on arrival, so the receipt is normally there on the first ask.
  const mined = (hash: Hex): Promise<TransactionReceipt> => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 });

  return {
    rpcUrl,
    accounts,

    async deployToken() {
      const { abi, bytecode } = await compileTestToken();
      const hash = await walletOf(0).deployContract({ abi, bytecode, args: ['Test Tether', 'TUSDT', tokenInitialSupplyBaseUnits] });
      const receipt = await mined(hash);
      if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`TestToken deployment ${hash} failed`);
      return getAddress(receipt.contractAddress);
    },

    async sendEth({ from, to, amountWei }) {
      const hash = await walletOf(from).sendTransaction({ to: getAddress(to), value: amountWei });
      await mined(hash);
      return hash;
    },

    async sendToken({ token, from, to, amountBaseUnits }) {
      const { abi } = await compileTestToken();
      const hash = await walletOf(from).writeContract({
        address: getAddress(token),
        abi,
        functionName: 'transfer',
        args: [getAddress(to), amountBaseUnits],
        gas: tokenTransferGas,
      });
      await mined(hash);
      return hash;
    },

    async mine(count) {
      await server.provider.request({ method: 'evm_mine', params: [{ blocks: count }] });
    },

    close: () => server.close(),
  };
}
