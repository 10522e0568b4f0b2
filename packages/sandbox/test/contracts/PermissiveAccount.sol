// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

interface IERC20Approve {
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @notice A contract account that answers ERC-1271's magic value for every hash and every signature.
contract PermissiveAccount {
    address public immutable permit2;

    constructor(address permit2_) {
        permit2 = permit2_;
    }

    function isValidSignature(bytes32, bytes calldata) external pure returns (bytes4) {
        return 0x1626ba7e;
    }

    function approvePermit2(address token) external {
        IERC20Approve(token).approve(permit2, type(uint256).max);
    }
}
