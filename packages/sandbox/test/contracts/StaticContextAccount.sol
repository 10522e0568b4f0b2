// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

interface IERC20Approve {
    function approve(address spender, uint256 amount) external returns (bool);
}

/// @notice A contract account that answers ERC-1271's magic value for every hash when asked as Permit2 asks it (a
/// STATICCALL: it cannot write state), and otherwise only for the first hash it is asked in a call: a check that asks
/// with a CALL sees an account that commits to one hash.
contract StaticContextAccount {
    address public immutable permit2;
    uint256 private asked;
    uint256 private touched;

    constructor(address permit2_) {
        permit2 = permit2_;
    }

    function isValidSignature(bytes32, bytes calldata) external returns (bytes4) {
        (bool writable, ) = address(this).call{gas: 50000}(abi.encodeWithSelector(this.touch.selector));
        if (!writable) return 0x1626ba7e;
        asked += 1;
        return asked == 1 ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    /// @dev Writes state, so it fails inside a STATICCALL.
    function touch() external {
        touched = gasleft();
    }

    function approvePermit2(address token) external {
        IERC20Approve(token).approve(permit2, type(uint256).max);
    }
}
