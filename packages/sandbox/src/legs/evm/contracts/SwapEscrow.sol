// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

/// @notice The part of Permit2's signature-transfer interface the escrow calls (declared here from its ABI).
interface IPermit2WitnessTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }

    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }

    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

interface IERC20Transfer {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// @title SwapEscrow
/// @notice The swapintent sandbox escrow. The resolver (operator) submits the user's Permit2 signature;
/// the escrow pulls the tokens from the user through Permit2 `permitWitnessTransferFrom` (the escrow is the
/// spender), with the SwapWitness hash recomputed here from its fields, and locks them under the intent id.
/// `claim` with the preimage of the witness's secret hash pays the resolver's deposit address; `refund`
/// (after the permit deadline, or by the operator at any time) pays the owner back.
contract SwapEscrow {
    struct SwapWitness {
        bytes32 intentId;
        bytes32 secretHash;
        uint256 destChain;
        string destToken;
        string recipient;
        uint256 minDestAmount;
        uint256 maxDestAmount;
    }

    enum LockState {
        None,
        Locked,
        Claimed,
        Refunded
    }

    /// @dev Packed into four storage slots (owner, deadline and state share one).
    struct Lock {
        address owner;
        uint64 deadline;
        LockState state;
        address token;
        uint256 amount;
        bytes32 secretHash;
    }

    /// @dev The type string of SwapWitness, as EIP-712 encodes it.
    bytes32 public constant SWAP_WITNESS_TYPEHASH = keccak256(
        "SwapWitness(bytes32 intentId,bytes32 secretHash,uint256 destChain,string destToken,string recipient,uint256 minDestAmount,uint256 maxDestAmount)"
    );

    /// @dev The tail Permit2 appends to `PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,`.
    string public constant WITNESS_TYPE_STRING =
        "SwapWitness witness)SwapWitness(bytes32 intentId,bytes32 secretHash,uint256 destChain,string destToken,string recipient,uint256 minDestAmount,uint256 maxDestAmount)TokenPermissions(address token,uint256 amount)";

    IPermit2WitnessTransfer public immutable permit2;
    address public immutable operator;
    address public immutable resolverDeposit;

    mapping(bytes32 => Lock) public locks;
    /// @notice Intents the resolver has already delivered for (so a retried delivery never pays twice).
    mapping(bytes32 => bool) public delivered;

    event Deposited(
        bytes32 indexed intentId, address indexed owner, address indexed token, uint256 amount, bytes32 secretHash, uint256 deadline
    );
    event Claimed(bytes32 indexed intentId, address indexed to, uint256 amount);
    event Refunded(bytes32 indexed intentId, address indexed to, uint256 amount);
    event Delivered(bytes32 indexed intentId, address indexed token, address indexed to, uint256 amount);

    error NotOperator();
    error ZeroIntentId();
    error AlreadyLocked(bytes32 intentId);
    error NotLocked(bytes32 intentId);
    error WrongSecret(bytes32 intentId);
    error RefundTooEarly(bytes32 intentId, uint256 deadline, uint256 timestamp);
    error TokenTransferFailed(address token);
    error AlreadyDelivered(bytes32 intentId);
    error NativeAmountMismatch(uint256 sent, uint256 amount);
    error DeadlineTooLarge(uint256 deadline);

    /// @dev The token address that stands for the chain's native coin in `deliver`.
    address public constant NATIVE = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;

    constructor(IPermit2WitnessTransfer permit2_, address operator_, address resolverDeposit_) {
        permit2 = permit2_;
        operator = operator_;
        resolverDeposit = resolverDeposit_;
    }

    /// @notice Hash a SwapWitness the way EIP-712 `hashStruct` does.
    function hashWitness(SwapWitness calldata witness) public pure returns (bytes32) {
        return keccak256(
            abi.encode(
                SWAP_WITNESS_TYPEHASH,
                witness.intentId,
                witness.secretHash,
                witness.destChain,
                keccak256(bytes(witness.destToken)),
                keccak256(bytes(witness.recipient)),
                witness.minDestAmount,
                witness.maxDestAmount
            )
        );
    }

    /// @notice Pull the owner's tokens through Permit2 with the signed witness and lock them under the intent id.
    function deposit(
        IPermit2WitnessTransfer.PermitTransferFrom calldata permit,
        address owner,
        SwapWitness calldata witness,
        bytes calldata signature
    ) external {
        if (msg.sender != operator) revert NotOperator();
        if (witness.intentId == bytes32(0)) revert ZeroIntentId();
        Lock storage lock = locks[witness.intentId];
        if (lock.state != LockState.None) revert AlreadyLocked(witness.intentId);
        if (permit.deadline > type(uint64).max) revert DeadlineTooLarge(permit.deadline);

        lock.owner = owner;
        lock.deadline = uint64(permit.deadline);
        lock.state = LockState.Locked;
        lock.token = permit.permitted.token;
        lock.amount = permit.permitted.amount;
        lock.secretHash = witness.secretHash;

        permit2.permitWitnessTransferFrom(
            permit,
            IPermit2WitnessTransfer.SignatureTransferDetails({to: address(this), requestedAmount: permit.permitted.amount}),
            owner,
            hashWitness(witness),
            WITNESS_TYPE_STRING,
            signature
        );

        emit Deposited(witness.intentId, owner, permit.permitted.token, permit.permitted.amount, witness.secretHash, permit.deadline);
    }

    /// @notice Release the lock to the resolver's deposit address with the preimage of its secret hash.
    function claim(bytes32 intentId, bytes calldata secret) external {
        Lock storage lock = locks[intentId];
        if (lock.state != LockState.Locked) revert NotLocked(intentId);
        if (sha256(secret) != lock.secretHash) revert WrongSecret(intentId);
        lock.state = LockState.Claimed;
        _pay(lock.token, resolverDeposit, lock.amount);
        emit Claimed(intentId, resolverDeposit, lock.amount);
    }

    /// @notice Return the lock to its owner: anyone after the deadline, the operator at any time.
    function refund(bytes32 intentId) external {
        Lock storage lock = locks[intentId];
        if (lock.state != LockState.Locked) revert NotLocked(intentId);
        if (msg.sender != operator && block.timestamp <= lock.deadline) {
            revert RefundTooEarly(intentId, lock.deadline, block.timestamp);
        }
        lock.state = LockState.Refunded;
        _pay(lock.token, lock.owner, lock.amount);
        emit Refunded(intentId, lock.owner, lock.amount);
    }

    /// @notice The resolver pays `amount` of `token` (or the native coin, sent as value) from its own inventory
    /// to `to` for a destination-side intent, at most once per intent id. ERC-20s move with `transferFrom`
    /// from the operator, which has approved this contract.
    function deliver(bytes32 intentId, address token, address to, uint256 amount) external payable {
        if (msg.sender != operator) revert NotOperator();
        if (intentId == bytes32(0)) revert ZeroIntentId();
        if (delivered[intentId]) revert AlreadyDelivered(intentId);
        delivered[intentId] = true;
        if (token == NATIVE) {
            if (msg.value != amount) revert NativeAmountMismatch(msg.value, amount);
            (bool sent,) = to.call{value: amount}("");
            if (!sent) revert TokenTransferFailed(token);
        } else {
            if (msg.value != 0) revert NativeAmountMismatch(msg.value, 0);
            (bool ok, bytes memory data) = token.call(abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, to, amount));
            if (!ok || (data.length != 0 && !abi.decode(data, (bool)))) revert TokenTransferFailed(token);
        }
        emit Delivered(intentId, token, to, amount);
    }

    function _pay(address token, address to, uint256 amount) private {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20Transfer.transfer, (to, amount)));
        if (!ok || (data.length != 0 && !abi.decode(data, (bool)))) revert TokenTransferFailed(token);
    }
}
