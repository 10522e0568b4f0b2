// SPDX-License-Identifier: MIT
pragma solidity 0.8.17;

/// @title ContractSignatureProbe
/// @notice Never deployed: its creation code runs in one `eth_call` without a target. It asks a contract owner's
/// ERC-1271 `isValidSignature` what Permit2 will ask, after running an ERC-6492 factory call when the owner has no
/// code yet, and returns `abi.encode(uint256 codeBefore, bool factoryCalled, bool factorySucceeded,
/// uint256 codeAfter, bytes4 forDigest, bytes4 forControl)`: `forControl` is the answer for an unrelated hash.
contract ContractSignatureProbe {
    constructor(
        address owner,
        bytes32 digest,
        bytes32 controlHash,
        bytes memory signature,
        address factory,
        bytes memory factoryCalldata
    ) {
        uint256 codeBefore = owner.code.length;
        bool factoryCalled = codeBefore == 0 && factory != address(0);
        bool factorySucceeded = false;
        if (factoryCalled) (factorySucceeded,) = factory.call(factoryCalldata);
        uint256 codeAfter = owner.code.length;
        bytes4 forDigest = codeAfter == 0 ? bytes4(0) : ask(owner, digest, signature);
        bytes4 forControl = codeAfter == 0 ? bytes4(0) : ask(owner, controlHash, signature);
        bytes memory result = abi.encode(codeBefore, factoryCalled, factorySucceeded, codeAfter, forDigest, forControl);
        assembly {
            return(add(result, 32), mload(result))
        }
    }

    /// @dev `isValidSignature(hash, signature)` as Permit2 calls it: a STATICCALL (Permit2's interface is `view`), so
    /// the owner cannot tell the probe from Permit2 by whether it may write state, nor keep a count between the two
    /// questions; and its answer read as Permit2's ABI decoder reads it: a revert or fewer than 32 bytes is no, a
    /// longer answer is its first word, and a word with bits set past the 4 bytes of a `bytes4` (which the decoder
    /// refuses) is no.
    function ask(address owner, bytes32 hash, bytes memory signature) internal view returns (bytes4) {
        (bool ok, bytes memory answer) = owner.staticcall(abi.encodeWithSelector(0x1626ba7e, hash, signature));
        if (!ok || answer.length < 32) return bytes4(0);
        bytes32 word = bytes32(answer);
        if (word << 32 != 0) return bytes4(0);
        return bytes4(word);
    }
}
