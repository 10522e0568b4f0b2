// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

interface IERC20Approve {
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @notice A contract account whose signature names the hash it signs: for that hash it answers ERC-1271's magic value
/// in one word, for any other hash the magic value followed by a second word, which an ABI decoder (Permit2's) reads
/// as the magic value too.
contract DigestEchoAccount {
    address public immutable permit2;

    constructor(address permit2_) {
        permit2 = permit2_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external pure returns (bytes4) {
        if (signature.length >= 32 && bytes32(signature[:32]) == hash) return 0x1626ba7e;
        assembly {
            mstore(0, 0x1626ba7e00000000000000000000000000000000000000000000000000000000)
            mstore(32, 0)
            return(0, 64)
        }
    }

    function approvePermit2(address token) external {
        IERC20Approve(token).approve(permit2, type(uint256).max);
    }
}
