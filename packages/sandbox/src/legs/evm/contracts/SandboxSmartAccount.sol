// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

interface IERC20Approve {
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @title SandboxSmartAccount
/// @notice A minimal ERC-1271 smart account for the swapintent sandbox: one owner key. The owner signs a
/// replay-safe hash (EIP-712 over this account's own domain, `SandboxSmartAccountMessage(bytes32 hash)`), so a
/// signature for one account is never valid for another account of the same owner, nor for the owner's own address.
contract SandboxSmartAccount {
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;
    bytes4 internal constant INVALID = 0xffffffff;
    /// @dev Half the secp256k1 group order: signatures with a higher `s` are refused (EIP-2).
    uint256 internal constant HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant MESSAGE_TYPEHASH = keccak256("SandboxSmartAccountMessage(bytes32 hash)");

    address public immutable owner;
    address public immutable permit2;

    error NotOwner();
    error CallFailed(bytes reason);

    constructor(address owner_, address permit2_) {
        owner = owner_;
        permit2 = permit2_;
    }

    receive() external payable {}

    /// @notice The hash the owner's key signs for `hash`: EIP-712 over this account's domain.
    function replaySafeHash(bytes32 hash) public view returns (bytes32) {
        bytes32 domainSeparator = keccak256(
            abi.encode(
                DOMAIN_TYPEHASH,
                keccak256("SandboxSmartAccount"),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator, keccak256(abi.encode(MESSAGE_TYPEHASH, hash))));
    }

    /// @notice ERC-1271: the magic value only for a 65-byte low-s signature by the owner over `replaySafeHash(hash)`.
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_N || (v != 27 && v != 28)) return INVALID;
        address signer = ecrecover(replaySafeHash(hash), v, r, s);
        return signer != address(0) && signer == owner ? MAGIC_VALUE : INVALID;
    }

    /// @notice Let Permit2 move `token` (anyone may call: Permit2 still needs the owner's signature for every transfer).
    function approvePermit2(address token) external {
        IERC20Approve(token).approve(permit2, type(uint256).max);
    }

    /// @notice The owner's own transactions from the account.
    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory) {
        if (msg.sender != owner) revert NotOwner();
        (bool ok, bytes memory result) = to.call{value: value}(data);
        if (!ok) revert CallFailed(result);
        return result;
    }
}

/// @title SandboxSmartAccountFactory
/// @notice Deploys a {SandboxSmartAccount} at a CREATE2 address fixed by its owner and a salt (known before it
/// exists, for ERC-6492), and lets Permit2 move the sandbox's tokens from it.
contract SandboxSmartAccountFactory {
    address public immutable permit2;
    address[] internal approvedTokens;

    event AccountCreated(address indexed account, address indexed owner, bytes32 salt);

    constructor(address permit2_, address[] memory tokens_) {
        permit2 = permit2_;
        approvedTokens = tokens_;
    }

    /// @notice The tokens every new account approves to Permit2.
    function tokens() external view returns (address[] memory) {
        return approvedTokens;
    }

    /// @notice The account's address for `owner` and `salt`, deployed or not.
    function getAccountAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 initCodeHash =
            keccak256(abi.encodePacked(type(SandboxSmartAccount).creationCode, abi.encode(owner, permit2)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, initCodeHash)))));
    }

    /// @notice Deploy the account for `owner` and `salt` (or return it when it exists) and approve Permit2 for each token.
    function createAccount(address owner, bytes32 salt) external returns (address account) {
        account = getAccountAddress(owner, salt);
        if (account.code.length > 0) return account;
        SandboxSmartAccount created = new SandboxSmartAccount{salt: salt}(owner, permit2);
        for (uint256 i = 0; i < approvedTokens.length; i++) {
            created.approvePermit2(approvedTokens[i]);
        }
        emit AccountCreated(account, owner, salt);
    }
}
